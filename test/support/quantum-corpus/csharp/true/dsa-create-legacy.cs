using System.Security.Cryptography;

class LegacyUpdateSigner
{
    static void Main(string[] args)
    {
        var dsa = DSA.Create(1024); // expect: key-generation DSA
        var data = File.ReadAllBytes(args[0]);
        var sig = dsa.SignData(data, HashAlgorithmName.SHA1); // expect: signature DSA
        File.WriteAllBytes(args[0] + ".sig", sig);
    }
}
