import { Injectable, Module } from '@nestjs/common';
import { JwtModule, JwtService } from '@nestjs/jwt';
import { readFileSync } from 'node:fs';

const PRIVATE_KEY = readFileSync(process.env.JWT_PRIVATE_KEY_FILE ?? 'keys/jwt.pem', 'utf8');

@Injectable()
export class TokenService {
  constructor(private readonly jwt: JwtService) {}

  issue(userId: string): string {
    return this.jwt.sign({ sub: userId }, { algorithm: 'RS256', expiresIn: '15m' }); // expect: signature RSA
  }

  async check(token: string) {
    return this.jwt.verifyAsync(token, { algorithms: ['RS256'] }); // expect: signature RSA
  }
}

@Module({
  imports: [
    JwtModule.register({ // expect: signature ECDSA
      privateKey: PRIVATE_KEY,
      signOptions: { algorithm: 'ES256' },
    }),
  ],
  providers: [TokenService],
})
export class AuthModule {}
