const forge = require('node-forge');

function checksum(text) {
  const md = forge.md.sha256.create();
  md.update(text, 'utf8');
  return md.digest().toHex();
}

function encrypt(key, iv, text) {
  const cipher = forge.cipher.createCipher('AES-GCM', key);
  cipher.start({ iv });
  cipher.update(forge.util.createBuffer(text));
  cipher.finish();
  return { data: cipher.output.getBytes(), tag: cipher.mode.tag.getBytes() };
}

module.exports = { checksum, encrypt };
