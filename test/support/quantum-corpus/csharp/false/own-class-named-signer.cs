using System.Text;

namespace Webhooks
{
    public class Signer
    {
        private readonly string _secret;

        public Signer(string secret) => _secret = secret;

        public string SignData(string payload) => payload + "." + _secret.GetHashCode();

        public bool VerifyData(string payload, string signature) => SignData(payload) == signature;
    }

    public class Dispatcher
    {
        private readonly Signer _signer = new("s3cr3t");

        public string Envelope(string body) => _signer.SignData(body);
    }
}
