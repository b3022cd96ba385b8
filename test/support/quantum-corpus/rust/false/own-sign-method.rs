pub struct Invoice {
    pub total: u64,
    pub signed_by: Option<String>,
}

impl Invoice {
    pub fn sign(&mut self, clerk: &str) {
        self.signed_by = Some(clerk.to_owned());
    }

    pub fn verify(&self) -> bool {
        self.signed_by.is_some()
    }
}

pub fn close(invoice: &mut Invoice) {
    invoice.sign("alice");
    assert!(invoice.verify());
}
