module example.com/rev

go 1.26
