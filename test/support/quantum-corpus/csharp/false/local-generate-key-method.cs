using System;
using System.Linq;

namespace Shop.Cart
{
    public class CartKeyService
    {
        private static readonly Random Random = new();

        public string GenerateKey(int length = 16) =>
            new string(Enumerable.Range(0, length).Select(_ => (char)('a' + Random.Next(26))).ToArray());

        public string Encrypt(string value) => Convert.ToBase64String(System.Text.Encoding.UTF8.GetBytes(value));
    }

    public class CartController
    {
        private readonly CartKeyService _keys = new();

        public string NewCart() => _keys.Encrypt(_keys.GenerateKey(32));
    }
}
