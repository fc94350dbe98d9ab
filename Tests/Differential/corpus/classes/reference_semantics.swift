class Account {
    var balance: Int
    init(balance: Int) { self.balance = balance }
}

func deposit(_ account: Account, _ amount: Int) {
    account.balance += amount
}

struct Wallet {
    var account: Account
    var cash: Int
}

func main() {
    let acc = Account(balance: 100)
    deposit(acc, 50)
    print(acc.balance)
    var w1 = Wallet(account: acc, cash: 5)
    var w2 = w1
    w2.cash = 99
    w2.account.balance = 0
    print(w1.cash, w2.cash)
    print(w1.account.balance, w2.account.balance, acc.balance)
    w1.account = Account(balance: 7)
    print(w1.account.balance, w2.account.balance)
    print(w1.account === w2.account, w2.account === acc)
    let list = [acc, acc]
    list[0].balance = 42
    print(list[1].balance)
}
