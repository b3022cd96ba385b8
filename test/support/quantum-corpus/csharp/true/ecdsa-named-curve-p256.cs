using System.Security.Cryptography;

namespace Telemetry.Agent;

public sealed class PayloadSigner : IDisposable
{
    private readonly ECDsa _key = ECDsa.Create(ECCurve.NamedCurves.nistP256); // expect: key-generation ECDSA

    public byte[] Sign(ReadOnlySpan<byte> payload) =>
        _key.SignData(payload.ToArray(), HashAlgorithmName.SHA256); // expect: signature ECDSA

    public bool Verify(byte[] payload, byte[] signature) =>
        _key.VerifyData(payload, signature, HashAlgorithmName.SHA256); // expect: signature ECDSA

    public void Dispose() => _key.Dispose();
}
