using Org.BouncyCastle.Crypto;
using Org.BouncyCastle.Security;

namespace Pki.Enrollment
{
    public class EnrollmentKeys
    {
        private static readonly string KeyAlgorithm = "RSA";

        public IAsymmetricCipherKeyPairGenerator Generator()
        {
            return GeneratorUtilities.GetKeyPairGenerator(KeyAlgorithm); // expect: key-generation RSA
        }

        public IBasicAgreement Agreement() =>
            AgreementUtilities.GetBasicAgreement("ECDH"); // expect: key-agreement ECDH
    }
}
