import { PdfDocument } from './pdf';

export async function signContract(doc: PdfDocument, signer: { name: string; drawn: string }) {
  const page = doc.lastPage();
  page.sign(signer.drawn, { x: 40, y: 80 });
  await doc.encrypt('owner-password');
  return doc.verify(signer.name);
}
