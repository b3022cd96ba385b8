using Microsoft.AspNetCore.Authentication.JwtBearer;
using Microsoft.IdentityModel.Tokens;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddAuthentication(JwtBearerDefaults.AuthenticationScheme)
    .AddJwtBearer(options =>
    {
        options.TokenValidationParameters = new TokenValidationParameters
        {
            ValidateIssuer = true,
            ValidIssuer = builder.Configuration["Jwt:Issuer"],
            ValidAlgorithms = new[]
            {
                SecurityAlgorithms.RsaSha256, // expect: signature RSA
                SecurityAlgorithms.EcdsaSha384, // expect: signature ECDSA
            },
        };
    });
var app = builder.Build();
app.Run();
