module example.com/empty

go 1.21

require ()
