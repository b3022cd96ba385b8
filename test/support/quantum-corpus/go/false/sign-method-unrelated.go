package esign

type Document struct{ signatures []string }

func (d *Document) Sign(user string) { d.signatures = append(d.signatures, user) }

func (d *Document) Decrypt(password string) bool { return password != "" }

func Approve(d *Document, user string) bool {
	d.Sign(user)
	return d.Decrypt("owner")
}
