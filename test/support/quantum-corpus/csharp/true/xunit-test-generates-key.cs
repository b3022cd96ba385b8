using System.Security.Cryptography;
using Xunit;

namespace Signing.Tests
{
    public class SignatureVerifierTests
    {
        [Fact]
        public void Rejects_tampered_payload()
        {
            using var rsa = RSA.Create(512); // expect: key-generation RSA
            var data = new byte[] { 1, 2, 3 };
            var sig = rsa.SignData(data, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1); // expect: signature RSA
            data[0] = 9;
            Assert.False(rsa.VerifyData(data, sig, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1)); // expect: signature RSA
        }
    }
}
