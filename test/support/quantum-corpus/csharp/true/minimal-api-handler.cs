using System.Security.Cryptography;
using System.Text;

var app = WebApplication.CreateBuilder(args).Build();

app.MapPost("/receipts/sign", (Receipt receipt) =>
{
    using var ecdsa = ECDsa.Create(ECCurve.NamedCurves.nistP384); // expect: key-generation ECDSA
    var body = Encoding.UTF8.GetBytes(receipt.Id + receipt.Total);
    var signature = ecdsa.SignData(body, HashAlgorithmName.SHA384); // expect: signature ECDSA
    return Results.Ok(Convert.ToBase64String(signature));
});

app.Run();

record Receipt(string Id, decimal Total);
