interface RsaKeyRecord {
  id: string;
  rsaModulusBits: number;
  ecdsaCurve?: string;
}

export class KeyInventory {
  private readonly rsaKeys: RsaKeyRecord[] = [];

  addRsaKey(record: RsaKeyRecord): void {
    this.rsaKeys.push(record);
  }

  weakRsaKeys(): RsaKeyRecord[] {
    return this.rsaKeys.filter((key) => key.rsaModulusBits < 2048);
  }

  generateKeyPairReport(): string {
    return this.rsaKeys.map((key) => `${key.id}: RSA-${key.rsaModulusBits}`).join('\n');
  }
}
