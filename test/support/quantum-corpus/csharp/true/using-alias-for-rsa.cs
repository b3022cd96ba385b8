using System;
using Rsa = System.Security.Cryptography.RSA;
using Crypto = System.Security.Cryptography;

namespace Tools.KeyGen
{
    internal static class Program
    {
        private static void Main()
        {
            using var key = Rsa.Create(4096); // expect: key-generation RSA
            using var ec = Crypto.ECDsa.Create(Crypto.ECCurve.NamedCurves.nistP521); // expect: key-generation ECDSA
            Console.WriteLine(key.KeySize + ec.KeySize);
        }
    }
}
