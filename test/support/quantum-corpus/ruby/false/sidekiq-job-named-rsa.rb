class RsaKeyCleanupJob
  include Sidekiq::Job

  def perform(rsa_key_id)
    key = StoredKey.find(rsa_key_id)
    key.destroy! if key.expired?
  end
end
