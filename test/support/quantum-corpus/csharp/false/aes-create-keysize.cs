using System.IO;
using System.Security.Cryptography;

namespace Backup.Archive
{
    public static class ArchiveCipher
    {
        public static byte[] Seal(byte[] data, byte[] key)
        {
            using var aes = Aes.Create();
            aes.KeySize = 256;
            aes.Key = key;
            using var encryptor = aes.CreateEncryptor();
            return encryptor.TransformFinalBlock(data, 0, data.Length);
        }
    }
}
