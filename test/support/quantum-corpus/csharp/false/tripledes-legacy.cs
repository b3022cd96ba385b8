using System.Security.Cryptography;

namespace Mainframe.Bridge
{
    internal static class LegacyCipher
    {
        internal static ICryptoTransform Decryptor(byte[] key, byte[] iv)
        {
            var des = TripleDES.Create();
            return des.CreateDecryptor(key, iv);
        }
    }
}
