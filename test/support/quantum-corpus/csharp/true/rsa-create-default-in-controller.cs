using System.Security.Cryptography;
using System.Text;
using Microsoft.AspNetCore.Mvc;

namespace Billing.Api.Controllers;

[ApiController]
[Route("api/[controller]")]
public class InvoiceSignatureController : ControllerBase
{
    private readonly IConfiguration _configuration;

    public InvoiceSignatureController(IConfiguration configuration) => _configuration = configuration;

    [HttpPost("{invoiceId}/sign")]
    public IActionResult Sign(string invoiceId, [FromBody] InvoiceDto invoice)
    {
        using var rsa = RSA.Create(); // expect: key-generation RSA
        rsa.ImportFromPem(_configuration["Signing:PrivateKeyPem"]); // expect: key-material RSA
        var payload = Encoding.UTF8.GetBytes(invoice.CanonicalJson());
        var signature = rsa.SignData(payload, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1); // expect: signature RSA
        return Ok(new { invoiceId, signature = Convert.ToBase64String(signature) });
    }
}
