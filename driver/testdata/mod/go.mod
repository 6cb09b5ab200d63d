module example.com/dm

go 1.26
