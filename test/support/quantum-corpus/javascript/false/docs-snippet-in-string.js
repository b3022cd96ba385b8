// Generates the "Getting started" page of the docs site.
const EXAMPLE = `
const { generateKeyPairSync } = require('node:crypto');
const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
`;

const JWT_EXAMPLE = "jwt.sign(payload, key, { algorithm: 'RS256' })";

function renderPage(render) {
  return render('getting-started.md', { example: EXAMPLE, jwt: JWT_EXAMPLE });
}

module.exports = { renderPage };
