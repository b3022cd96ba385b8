#[cfg(test)]
mod tests {
    #[test]
    fn header_names_es256() {
        let header: serde_json::Value = serde_json::from_str(r#"{"alg":"ES256","typ":"JWT"}"#).unwrap();
        assert_eq!(header["alg"], "ES256");
        assert_ne!(header["alg"], "RS256");
    }
}
