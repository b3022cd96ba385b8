const express = require('express');
const { expressjwt } = require('express-jwt');
const passport = require('passport');
const JwtStrategy = require('passport-jwt').Strategy;
const { ExtractJwt } = require('passport-jwt');

const app = express();

app.use(
  '/api',
  expressjwt({ secret: process.env.JWT_PUBLIC_KEY, algorithms: ['RS256'] }), // expect: signature RSA
);

passport.use(
  new JwtStrategy( // expect: signature ECDSA
    {
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      secretOrKey: process.env.PARTNER_PUBLIC_KEY,
      algorithms: ['ES512'],
    },
    (payload, done) => done(null, payload),
  ),
);

module.exports = app;
