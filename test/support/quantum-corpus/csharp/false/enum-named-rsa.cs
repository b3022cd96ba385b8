namespace Inventory.Model
{
    public enum KeyKind
    {
        Rsa,
        Ecdsa,
        Ed25519,
    }

    public class KeyRecord
    {
        public KeyKind Kind { get; init; } = KeyKind.Rsa;
        public int Bits { get; init; } = 2048;

        public bool IsLegacy() => Kind == KeyKind.Rsa && Bits < 2048;
    }
}
