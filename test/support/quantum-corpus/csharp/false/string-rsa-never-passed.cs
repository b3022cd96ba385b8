using System;

namespace Reports
{
    public static class AlgorithmReport
    {
        public static string Describe(string algorithm)
        {
            var rsa = "RSA";
            switch (algorithm)
            {
                case "RSA":
                    return $"{rsa} (2048 bits recommended)";
                case "ECDSA":
                    return "Elliptic curve, P-256";
                default:
                    Console.WriteLine("unknown algorithm " + algorithm);
                    return "n/a";
            }
        }
    }
}
