module example.com/fe

go 1.26
