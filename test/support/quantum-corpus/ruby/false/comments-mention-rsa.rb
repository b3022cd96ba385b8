# Generates the nightly report.
#
# Historically we used OpenSSL::PKey::RSA.new(1024) here and signed the CSV;
# see docs/adr/0042-ml-dsa.md. Do not reintroduce OpenSSL::PKey::EC.generate('prime256v1').
class NightlyReport
=begin
  key.sign(OpenSSL::Digest::SHA256.new, csv)
=end
  def call
    CSV.generate { |csv| csv << %w[id total] }
  end
end
