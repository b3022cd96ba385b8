pub fn etag(body: &[u8]) -> String {
    format!("\"{:x}\"", md5::compute(body))
}
