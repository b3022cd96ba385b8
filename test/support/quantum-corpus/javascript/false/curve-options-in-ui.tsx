const CURVES = [
  { value: 'secp256k1', label: 'secp256k1 (Bitcoin)' },
  { value: 'P-256', label: 'NIST P-256' },
  { value: 'ed25519', label: 'Ed25519' },
];

export function CurvePicker({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <select value={value} onChange={(event) => onChange(event.target.value)}>
      {CURVES.map((curve) => (
        <option key={curve.value} value={curve.value}>
          {curve.label}
        </option>
      ))}
    </select>
  );
}
