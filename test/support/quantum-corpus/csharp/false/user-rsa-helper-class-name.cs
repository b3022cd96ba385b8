namespace Vault.Client
{
    public static class RsaKeyStore
    {
        public static RsaKeyStore Create() => null!;
        public static string Sign(string data) => data;
    }

    public class Uses
    {
        public void Run()
        {
            var store = RsaKeyStore.Create();
            var ecdsaKeyName = "ecdsa-signing";
            System.Console.WriteLine(RsaKeyStore.Sign(ecdsaKeyName));
        }
    }
}
