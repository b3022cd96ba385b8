using System.Diagnostics.Metrics;

namespace Auth.Telemetry
{
    public class TokenMetrics
    {
        private static readonly Meter Meter = new("auth");
        private static readonly Counter<long> Issued = Meter.CreateCounter<long>("tokens_issued");

        public void Record(string alg) => Issued.Add(1, new("alg", alg), new("kty", "RSA"));

        public void RecordDefault() => Record("RS256");
    }
}
