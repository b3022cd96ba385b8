import { describe, expect, it } from 'vitest';
import { repositoryIdentity } from './repository-identity';

describe('repository identity', () => {
  it('gives the addresses of one project one key and one https address', () => {
    const forms = [
      'https://git.example.test/acme/web.git',
      'https://git.example.test/acme/web',
      'https://git.example.test/acme/web/',
      'https://GIT.Example.TEST/acme/web.git',
      'https://git.example.test:8443/acme/web.git',
      'http://git.example.test/acme/web',
      'git@git.example.test:acme/web.git',
      'git@git.example.test:acme/web',
      'ssh://git@git.example.test/acme/web.git',
      'ssh://git@git.example.test:2222/acme/web.git',
      'git+ssh://git@git.example.test/acme/web.git',
      'git://git.example.test/acme/web.git',
      '  https://git.example.test/acme/Web.git  ',
    ];
    for (const form of forms) {
      expect(repositoryIdentity(form), form).toMatchObject({
        key: 'git.example.test/acme/web',
        uri: expect.stringMatching(/^https:\/\/git\.example\.test\/acme\/[Ww]eb$/),
      });
    }
    expect(repositoryIdentity('pkg:github/Acme/Web')?.key).toBe('github.com/acme/web');
    expect(repositoryIdentity('git@github.com:acme/web.git')?.key).toBe('github.com/acme/web');
  });

  it('keeps other projects apart, and names none for what is no address', () => {
    const key = (address: string) => repositoryIdentity(address)?.key;
    expect(key('https://git.example.test/acme/api.git')).not.toBe(
      key('https://git.example.test/acme/web.git'),
    );
    expect(key('https://other.example.test/acme/web.git')).not.toBe(
      key('https://git.example.test/acme/web.git'),
    );
    expect(repositoryIdentity('file:///srv/repos/web.git')).toEqual({
      key: 'file:///srv/repos/web',
      uri: 'file:///srv/repos/web',
    });
    for (const nothing of ['', 'web', 'pkg:npm/web', 'https://git.example.test/', 'ftp://x/y']) {
      expect(repositoryIdentity(nothing), nothing).toBeNull();
    }
  });
});
