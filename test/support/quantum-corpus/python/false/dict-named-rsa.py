rsa = {"name": "Regional Sales Area", "regions": ["north", "south"]}
ec = {"name": "Executive Committee"}


def members(committee):
    return committee.get("members", [])


def encrypt(value, key):
    return "".join(chr(ord(c) ^ key) for c in value)


print(members(ec), encrypt(rsa["name"], 7))
