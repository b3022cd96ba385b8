using System;

namespace Docs.Samples
{
    /// <summary>
    /// Signs nothing yet. The old implementation called RSA.Create(1024) and
    /// ECDsa.Create(ECCurve.NamedCurves.nistP256); see ADR-17 for the ML-DSA migration.
    /// </summary>
    public class MigrationNotes
    {
        // TODO: replace new RSACryptoServiceProvider(2048) with ML-KEM once .NET 10 ships.
        /* rsa.SignData(data, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1); */
        public string Status() => "pending";
    }
}
