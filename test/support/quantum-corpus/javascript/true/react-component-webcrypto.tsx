import { useEffect, useState } from 'react';

const ECDH_PARAMS: EcKeyGenParams = { name: 'ECDH', namedCurve: 'P-256' };

export function SecureChannel({ onReady }: { onReady: (key: CryptoKeyPair) => void }) {
  const [status, setStatus] = useState('Generating ECDH key…');
  useEffect(() => {
    window.crypto.subtle
      .generateKey(ECDH_PARAMS, true, ['deriveKey']) // expect: key-generation ECDH
      .then((pair) => {
        setStatus('Ready');
        onReady(pair);
      });
  }, [onReady]);
  return <p className="status">{status}</p>;
}
