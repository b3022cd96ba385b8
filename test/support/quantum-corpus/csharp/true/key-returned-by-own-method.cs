using System.Security.Cryptography;

namespace Receipts
{
    public class ReceiptSigner
    {
        private static RSA LoadKey() => RSA.Create(); // expect: key-generation RSA

        public byte[] Sign(byte[] receipt) =>
            LoadKey().SignData(receipt, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1); // expect: signature RSA
    }
}
