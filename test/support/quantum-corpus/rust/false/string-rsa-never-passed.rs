use std::collections::HashMap;

pub fn labels() -> HashMap<&'static str, &'static str> {
    let mut map = HashMap::new();
    map.insert("rsa", "RSA 2048");
    map.insert("ec", "prime256v1");
    map.insert("alg", "RS256");
    map
}
