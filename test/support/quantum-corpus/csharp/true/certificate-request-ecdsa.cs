using System;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

static class DevCertificate
{
    public static X509Certificate2 CreateSelfSigned(string host)
    {
        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256); // expect: key-generation ECDSA
        var request = new CertificateRequest($"CN={host}", key, HashAlgorithmName.SHA256); // expect: signature ECDSA
        return request.CreateSelfSigned(DateTimeOffset.UtcNow, DateTimeOffset.UtcNow.AddYears(1));
    }
}
