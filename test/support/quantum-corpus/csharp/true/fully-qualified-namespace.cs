namespace Interop
{
    public static class Keys
    {
        public static byte[] NewPublicKey()
        {
            using var ecdsa = System.Security.Cryptography.ECDsa.Create(); // expect: key-generation ECDSA
            return ecdsa.ExportSubjectPublicKeyInfo(); // expect: key-material ECDSA
        }
    }
}
