using System.IO;
using Microsoft.Extensions.Configuration;

namespace Deploy.Tools
{
    public class KeyFileLocator
    {
        public string Find(IConfiguration configuration)
        {
            var rsaKeyPath = configuration["Signing:RsaKeyPath"];
            var ecdsaPublicKeyFile = Path.Combine("keys", "ecdsa-p256.pub");
            return File.Exists(rsaKeyPath) ? rsaKeyPath : ecdsaPublicKeyFile;
        }
    }
}
