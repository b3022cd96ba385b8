namespace Crm.Privacy
{
    public interface IFieldCipher
    {
        string Encrypt(string plain);
        string Decrypt(string cipher);
    }

    public class CustomerExporter
    {
        private readonly IFieldCipher _cipher;

        public CustomerExporter(IFieldCipher cipher) => _cipher = cipher;

        public string ExportEmail(string email) => _cipher.Encrypt(email);

        public string ImportEmail(string value) => _cipher.Decrypt(value);
    }
}
