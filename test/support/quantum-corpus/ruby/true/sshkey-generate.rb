require 'sshkey'

namespace :deploy do
  desc 'Generate a deploy key for the build servers'
  task :keygen do
    k = SSHKey.generate(type: 'RSA', bits: 4096, comment: 'deploy@ci') # expect: key-generation RSA
    File.write('deploy_key.pub', k.ssh_public_key)
  end

  task :legacy_keygen do
    SSHKey.generate(type: 'DSA') # expect: key-generation DSA
  end
end
