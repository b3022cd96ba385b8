using Microsoft.Extensions.Logging;

namespace Ops.Rotation
{
    public class RotationReporter
    {
        private readonly ILogger<RotationReporter> _logger;

        public RotationReporter(ILogger<RotationReporter> logger) => _logger = logger;

        public void Report(int size, string keyId)
        {
            _logger.LogInformation("Rotated RSA key {KeyId} of {Size} bits; ECDsa.Create next", keyId, size);
            _logger.LogWarning("RSA.Create(1024) is weak, SecurityAlgorithms.RsaSha256 tokens will expire");
        }
    }
}
