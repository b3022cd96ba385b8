using Microsoft.Extensions.DependencyInjection;

namespace Startup
{
    public class KeyManagementOptions
    {
        public int KeySize { get; set; }
        public string Algorithm { get; set; } = "";
    }

    public static class Registration
    {
        public static void AddKeys(IServiceCollection services)
        {
            services.Configure<KeyManagementOptions>(settings =>
            {
                settings.KeySize = 4096;
                settings.Algorithm = "RSA";
            });
        }
    }
}
