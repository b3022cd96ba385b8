// Pairs players for a tournament round; nothing to do with cryptography.
function generateKeyPair(players) {
  const shuffled = [...players].sort(() => Math.random() - 0.5);
  return { home: shuffled[0], away: shuffled[1] };
}

function generateKeyPairSync(players) {
  return generateKeyPair(players);
}

const round = generateKeyPair(['ana', 'ben', 'caro']);
const rematch = generateKeyPairSync(['dan', 'eve']);
console.log(round, rematch);
