"""Writes orig.jsonl and planted.jsonl: eight class-level (unittest) originals, each with a
planted change in a method branch its tests never reach (run by hand after editing; both outputs
are checked in). The tests only call the constructor and methods on one object, as ClassEval's do."""
import json

T = [
    # (id, class, original, planted, tests)
    ("empty_pop", "Stack",
     "class Stack:\n    def __init__(self):\n        self.items = []\n\n    def push(self, x):\n        self.items.append(x)\n\n"
     "    def pop(self):\n        if not self.items:\n            return None\n        return self.items.pop()\n",
     "class Stack:\n    def __init__(self):\n        self.items = []\n\n    def push(self, x):\n        self.items.append(x)\n\n"
     "    def pop(self):\n        if not self.items:\n            return 0\n        return self.items.pop()\n",
     "    def test_push_pop(self):\n        s = Stack()\n        s.push(4)\n        self.assertEqual(s.pop(), 4)\n"),
    ("capacity", "Queue",
     "class Queue:\n    def __init__(self, cap):\n        self.cap = cap\n        self.items = []\n\n    def put(self, x):\n"
     "        if len(self.items) >= self.cap:\n            return False\n        self.items.append(x)\n        return True\n",
     "class Queue:\n    def __init__(self, cap):\n        self.cap = cap\n        self.items = []\n\n    def put(self, x):\n"
     "        if len(self.items) >= self.cap:\n            self.items.pop(0)\n        self.items.append(x)\n        return True\n",
     "    def setUp(self):\n        self.q = Queue(5)\n\n    def test_put(self):\n        self.assertTrue(self.q.put('a'))\n"
     "        self.assertEqual(self.q.items, ['a'])\n"),
    ("threshold", "Account",
     "class Account:\n    def __init__(self, balance=0):\n        self.balance = balance\n\n    def withdraw(self, amount):\n"
     "        if amount > 500:\n            raise ValueError('limit')\n        self.balance -= amount\n        return self.balance\n",
     "class Account:\n    def __init__(self, balance=0):\n        self.balance = balance\n\n    def withdraw(self, amount):\n"
     "        if amount > 500:\n            raise KeyError('limit')\n        self.balance -= amount\n        return self.balance\n",
     "    def test_withdraw(self):\n        acc = Account(100)\n        self.assertEqual(acc.withdraw(30), 70)\n"),
    ("state", "Counter",
     "class Counter:\n    def __init__(self):\n        self.counts = {}\n\n    def add(self, word):\n        if word == '':\n"
     "            return len(self.counts)\n        self.counts[word] = self.counts.get(word, 0) + 1\n        return len(self.counts)\n",
     "class Counter:\n    def __init__(self):\n        self.counts = {}\n\n    def add(self, word):\n        if word == '':\n"
     "            self.counts[word] = 0\n            return len(self.counts) - 1\n        self.counts[word] = self.counts.get(word, 0) + 1\n"
     "        return len(self.counts)\n",
     "    def test_add(self):\n        c = Counter()\n        self.assertEqual(c.add('x'), 1)\n        self.assertEqual(c.add('y'), 2)\n"),
    ("magic_key", "Config",
     "class Config:\n    def __init__(self):\n        self.data = {'mode': 'fast'}\n\n    def get(self, key):\n"
     "        if key == 'debug':\n            return False\n        return self.data.get(key)\n",
     "class Config:\n    def __init__(self):\n        self.data = {'mode': 'fast'}\n\n    def get(self, key):\n"
     "        if key == 'debug':\n            return True\n        return self.data.get(key)\n",
     "    def test_get(self):\n        cfg = Config()\n        self.assertEqual(cfg.get('mode'), 'fast')\n"),
    ("attribute", "Lamp",
     "class Lamp:\n    def __init__(self):\n        self.on = False\n        self.level = 0\n\n    def toggle(self):\n"
     "        self.on = not self.on\n        if self.on and self.level == 0:\n            self.level = 1\n        return self.on\n",
     "class Lamp:\n    def __init__(self):\n        self.on = False\n        self.level = 0\n\n    def toggle(self):\n"
     "        self.on = not self.on\n        if self.on and self.level == 0:\n            self.level = 1\n        else:\n"
     "            self.level = 0\n        return self.on\n",
     "    def test_toggle(self):\n        lamp = Lamp()\n        self.assertTrue(lamp.toggle())\n        self.assertEqual(lamp.level, 1)\n"),
    ("negative", "Thermo",
     "class Thermo:\n    def __init__(self, t):\n        self.t = t\n\n    def label(self):\n        if self.t < 0:\n"
     "            return 'freezing'\n        return 'ok'\n",
     "class Thermo:\n    def __init__(self, t):\n        self.t = t\n\n    def label(self):\n        if self.t < 0:\n"
     "            return 'cold'\n        return 'ok'\n",
     "    def test_label(self):\n        th = Thermo(20)\n        self.assertEqual(th.label(), 'ok')\n"),
    ("set_attribute", "Cart",
     "class Cart:\n    def __init__(self):\n        self.items = []\n        self.discount = 0\n\n    def add(self, price):\n"
     "        self.items.append(price)\n\n    def total(self):\n        s = sum(self.items)\n        if self.discount > 50:\n"
     "            return s // 2\n        return s - self.discount\n",
     "class Cart:\n    def __init__(self):\n        self.items = []\n        self.discount = 0\n\n    def add(self, price):\n"
     "        self.items.append(price)\n\n    def total(self):\n        s = sum(self.items)\n        if self.discount > 50:\n"
     "            return s // 3\n        return s - self.discount\n",
     "    def test_total(self):\n        cart = Cart()\n        cart.add(100)\n        cart.discount = 10\n        self.assertEqual(cart.total(), 90)\n"),
]


def task(tid, cls, src, tests):
    code = "import unittest\n\n\nclass %sTest(unittest.TestCase):\n%s" % (cls, tests)
    return {"id": "class/" + tid, "source": src, "entry_point": cls,
            "tests": {"kind": "unittest", "code": code, "classes": [cls + "Test"]}, "extra_files": {}, "meta": {}}


with open("orig.jsonl", "w") as o, open("planted.jsonl", "w") as p:
    for tid, cls, src, planted, tests in T:
        o.write(json.dumps(task(tid, cls, src, tests)) + "\n")
        p.write(json.dumps(task(tid, cls, planted, tests)) + "\n")
