package sampledata

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"

	_ "modernc.org/sqlite" // the "sqlite" driver, for the sample database
)

// The analyze job's samples: a sales export (two years of orders in five
// states, with a spring surge in Arizona in 2021) and a small shop
// database in SQLite (stores, products and orders), so that `quarry
// analyze` has a file and a database to work on.

// salesSeed fixes the sales sample.
const salesSeed = 2021

var (
	salesStates   = []string{"Arizona", "California", "Nevada", "New York", "Texas"}
	salesWeights  = []float64{0.14, 0.32, 0.08, 0.26, 0.20}
	salesProducts = []struct {
		name, category string
		price          float64
	}{
		{"Trail Shoe", "Footwear", 89}, {"Road Shoe", "Footwear", 119}, {"Rain Jacket", "Apparel", 149},
		{"Fleece", "Apparel", 69}, {"Daypack", "Gear", 59}, {"Headlamp", "Gear", 29}, {"Water Bottle", "Gear", 15},
	}
)

// WriteSales writes the sales sample: order_id, order_date, state,
// product, category, quantity, unit_price, amount, customer_id. Orders
// grow 1% a month with a weekly rhythm; Arizona's orders double from
// February to April 2021.
func WriteSales(w io.Writer) error {
	r := newRand(salesSeed)
	cw := newCSVWriter(w)
	cw.header("order_id", "order_date", "state", "product", "category", "quantity", "unit_price", "amount", "customer_id")
	states := newPicker(salesWeights)
	weights := make([]float64, len(salesProducts))
	for i := range weights {
		weights[i] = 1 / math.Sqrt(float64(i+1))
	}
	products := newPicker(weights)
	id := int64(100000)
	end, surgeFrom, surgeTo := date("2021-12-31").Time(), date("2021-02-01").Time(), date("2021-05-01").Time()
	for d := date("2020-01-01"); !d.Time().After(end); d = d.AddDays(1) {
		month := float64(d.Time().Year()-2020)*12 + float64(d.Time().Month()-1)
		base := 5.5 * math.Pow(1.01, month)
		if weekend(d) {
			base *= 1.3
		}
		for range poisson(r, base) {
			writeSale(cw, r, &id, d.String(), salesStates[states.pick(r)], products)
		}
		if t := d.Time(); !t.Before(surgeFrom) && t.Before(surgeTo) {
			// Arizona's spring surge: as many orders again.
			for range poisson(r, base*salesWeights[0]) {
				writeSale(cw, r, &id, d.String(), "Arizona", products)
			}
		}
	}
	return cw.flush()
}

func writeSale(cw *csvWriter, r *rand.Rand, id *int64, day, state string, products picker) {
	*id++
	p := salesProducts[products.pick(r)]
	qty := 1 + r.IntN(3)
	price := p.price
	if r.Float64() < 0.15 {
		price = math.Round(price*0.8*100) / 100 // on sale
	}
	cw.integer(*id)
	cw.str(day)
	cw.str(state)
	cw.str(p.name)
	cw.str(p.category)
	cw.integer(int64(qty))
	cw.money(price)
	cw.money(price * float64(qty))
	cw.str(fmt.Sprintf("C%04d", 1+r.IntN(1500)))
	cw.end()
}

// shopStores are the sample database's stores.
var shopStores = []struct {
	id          int
	city, state string
}{{1, "Phoenix", "Arizona"}, {2, "Tucson", "Arizona"}, {3, "Reno", "Nevada"}, {4, "Austin", "Texas"}, {5, "San Diego", "California"}}

// WriteShopDB writes the sample SQLite database at path (replacing it):
// stores(store_id, city, state), products(product_id, name, category,
// price) and orders(order_id, store_id, product_id, order_date DATE,
// quantity, amount) for 2021, with Tucson's orders falling by half from
// July.
func WriteShopDB(path string) error {
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		return err
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return err
	}
	defer db.Close()
	ctx := context.Background()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, s := range []string{
		"CREATE TABLE stores (store_id INTEGER PRIMARY KEY, city TEXT NOT NULL, state TEXT NOT NULL)",
		"CREATE TABLE products (product_id INTEGER PRIMARY KEY, name TEXT NOT NULL, category TEXT NOT NULL, price REAL NOT NULL)",
		"CREATE TABLE orders (order_id INTEGER PRIMARY KEY, store_id INTEGER NOT NULL REFERENCES stores, product_id INTEGER NOT NULL REFERENCES products, order_date DATE NOT NULL, quantity INTEGER NOT NULL, amount REAL NOT NULL)",
	} {
		if _, err := tx.ExecContext(ctx, s); err != nil {
			return err
		}
	}
	for _, s := range shopStores {
		if _, err := tx.ExecContext(ctx, "INSERT INTO stores VALUES (?, ?, ?)", s.id, s.city, s.state); err != nil {
			return err
		}
	}
	for i, p := range salesProducts {
		if _, err := tx.ExecContext(ctx, "INSERT INTO products VALUES (?, ?, ?, ?)", i+1, p.name, p.category, p.price); err != nil {
			return err
		}
	}
	r := newRand(salesSeed + 1)
	id := 0
	july := date("2021-07-01").Time()
	for d := date("2021-01-01"); d.Time().Year() == 2021; d = d.AddDays(1) {
		for _, s := range shopStores {
			lambda := 3.0
			if s.city == "Tucson" && !d.Time().Before(july) {
				lambda = 1.5
			}
			for range poisson(r, lambda) {
				id++
				p := r.IntN(len(salesProducts))
				qty := 1 + r.IntN(3)
				if _, err := tx.ExecContext(ctx, "INSERT INTO orders VALUES (?, ?, ?, ?, ?, ?)", id, s.id, p+1, d.String(), qty,
					math.Round(salesProducts[p].price*float64(qty)*100)/100); err != nil {
					return err
				}
			}
		}
	}
	return tx.Commit()
}
