require 'digest'

class AssetFingerprint
  def self.for(path)
    Digest::SHA256.hexdigest(File.binread(path))[0, 16]
  end

  def self.legacy(path)
    Digest::MD5.file(path).hexdigest
  end
end
