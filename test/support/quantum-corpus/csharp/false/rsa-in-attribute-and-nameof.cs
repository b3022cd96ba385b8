using System;
using System.Security.Cryptography;

namespace Compat.Api
{
    public class KeyEndpoints
    {
        [Obsolete("RSA keys below 2048 bits are rejected; use ECDsa.Create instead")]
        public string Legacy() => nameof(RSA) + "/" + nameof(ECDsa);

        public Type KeyType => typeof(RSA);
    }
}
