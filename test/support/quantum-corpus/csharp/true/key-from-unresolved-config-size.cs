using System.Security.Cryptography;
using Microsoft.Extensions.Options;

namespace Identity.Keys
{
    public class ConfiguredKeyFactory
    {
        private readonly KeyOptions _options;

        public ConfiguredKeyFactory(IOptions<KeyOptions> options) => _options = options.Value;

        public RSA Create() => RSA.Create(_options.RsaKeySize); // expect: key-generation RSA

        public ECDiffieHellman Exchange() =>
            ECDiffieHellman.Create(_options.UseP384 ? ECCurve.NamedCurves.nistP384 : ECCurve.NamedCurves.nistP256); // expect: key-agreement ECDH
    }
}
