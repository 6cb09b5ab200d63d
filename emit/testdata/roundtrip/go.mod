module example.com/rt

go 1.26
