using System.Security.Cryptography;

namespace Audit.Trail;

public class AuditRecordSigner
{
    private ECDsa? _signer;

    public void Attach(ECDsa signer) => _signer = signer;

    public byte[]? Sign(byte[] record) => _signer?.SignData(record, HashAlgorithmName.SHA256); // expect: signature ECDSA
}
