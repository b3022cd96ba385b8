class SessionToken
  SECRET = Rails.application.secret_key_base

  def self.issue(user_id)
    JWT.encode({ user_id: user_id }, SECRET, 'HS256')
  end

  def self.read(token)
    JWT.decode(token, SECRET, true, algorithm: 'HS256').first
  end
end
