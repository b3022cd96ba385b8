using Microsoft.AspNetCore.DataProtection;

namespace Portal.Cookies
{
    public class RememberMeProtector
    {
        private readonly IDataProtector _protector;

        public RememberMeProtector(IDataProtectionProvider provider) =>
            _protector = provider.CreateProtector("RememberMe.v1");

        public string Protect(string userId) => _protector.Protect(userId);

        public string Unprotect(string cookie) => _protector.Unprotect(cookie);
    }
}
